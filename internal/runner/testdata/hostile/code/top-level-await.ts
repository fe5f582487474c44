const config = await Promise.resolve(1);
export default () => config;
