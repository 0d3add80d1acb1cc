export * from './redis';
export * from './postgres';
