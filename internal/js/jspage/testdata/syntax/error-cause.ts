class HttpError extends Error {
  override name = "HttpError";
  constructor(public status: number, opts?: { cause?: unknown }) { super(`status ${status}`, opts); }
}
export default async function () {
  try { throw new HttpError(404, { cause: "nf" }); }
  catch (e) { return [(e as HttpError).status, (e as Error).cause, e instanceof HttpError]; }
}
