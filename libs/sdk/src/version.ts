/** This package's version (a test keeps it equal to package.json's), sent in `User-Agent`. */
export const SDK_VERSION = '0.1.0';
