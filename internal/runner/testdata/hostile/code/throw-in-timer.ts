export default () =>
  new Promise((resolve) => {
    setTimeout(() => {
      throw new Error("boom in a timer");
    }, 1);
    setTimeout(resolve, 50);
  });
