export default () => new Promise(() => {});
