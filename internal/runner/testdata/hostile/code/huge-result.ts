export default () => "x".repeat(5 * 1024 * 1024);
