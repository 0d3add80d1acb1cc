export * from './redis';
export * from './redis-server';
export * from './postgres';
export * from './browser';
export * from './process';
export * from './net';
export * from './smtp-sink';
