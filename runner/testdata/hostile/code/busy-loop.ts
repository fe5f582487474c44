export default () => {
  for (;;) {}
};
