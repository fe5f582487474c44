class Btn {
  label = "ok";
  onClick = () => this.label;
  static of = (l: string) => Object.assign(new Btn(), { label: l });
}
export default async function () {
  const f = Btn.of("go").onClick;
  return f();
}
