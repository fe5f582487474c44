class Handler {
  get = async (q: string) => ({ q });
}
const h = new Handler();
export default h.get;
