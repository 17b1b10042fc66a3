export * from './content-block';
export * from './post';
export * from './post-status';
export * from './term';
