export default async function () {
  return ["\x41", "\u{1F600}".length, "line\
continued", '\'', "\0", "tab\there"];
}
