// Host calls in a tight loop (never awaited): the deadline still stops it.
export default () => {
  for (;;) collections.get("notes", "a");
};
