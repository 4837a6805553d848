export * from './types';
export * from './parse-menu';
export * from './fill-menu';
export * from './display';
export * from './input-bounds';
