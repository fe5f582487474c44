export const hooks = 1;
