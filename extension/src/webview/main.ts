// The preview panel's script (bundled to dist/webview.js, loaded with the
// page's nonce). It only talks to the extension through postMessage:
//   → {type:"run", input}          the Run button / Ctrl+Enter
//   → {type:"open", file, line, column}   a click on a .ts location
//   ← {type:"running"}             a run started
//   ← {type:"result", html}        the rendered record (already escaped by render.ts)
//   ← {type:"inputError", message} the input box does not parse

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

(function main() {
  const vscode = acquireVsCodeApi();
  const form = document.getElementById("run-form") as HTMLFormElement;
  const input = document.getElementById("input") as HTMLTextAreaElement;
  const run = document.getElementById("run") as HTMLButtonElement;
  const reset = document.getElementById("reset") as HTMLButtonElement;
  const state = document.getElementById("state") as HTMLElement;
  const output = document.getElementById("output") as HTMLElement;

  const saved = vscode.getState() as { input?: string } | undefined;
  if (saved && typeof saved.input === "string") input.value = saved.input;

  function setState(text: string, isError: boolean): void {
    state.textContent = text;
    state.classList.toggle("error", isError);
  }

  function submit(): void {
    const text = input.value;
    if (text.trim() !== "") {
      try {
        JSON.parse(text);
      } catch (e) {
        input.classList.add("invalid");
        setState(`Input is not JSON: ${e instanceof Error ? e.message : String(e)}`, true);
        return;
      }
    }
    input.classList.remove("invalid");
    vscode.setState({ input: text });
    vscode.postMessage({ type: "run", input: text });
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      submit();
    }
  });
  input.addEventListener("input", () => {
    input.classList.remove("invalid");
    vscode.setState({ input: input.value });
  });
  reset.addEventListener("click", () => {
    input.value = input.dataset.sample ?? "{}";
    input.classList.remove("invalid");
    vscode.setState({ input: input.value });
    setState("", false);
  });

  // One listener for every location link, present or future.
  document.body.addEventListener("click", (ev) => {
    const target = ev.target as Element | null;
    const link = target?.closest("[data-file]") as HTMLElement | null;
    if (!link) return;
    ev.preventDefault();
    vscode.postMessage({
      type: "open",
      file: link.dataset.file,
      line: Number(link.dataset.line) || 1,
      column: Number(link.dataset.column) || 1,
    });
  });

  window.addEventListener("message", (ev: MessageEvent) => {
    const msg = ev.data as { type?: string; html?: string; message?: string };
    switch (msg?.type) {
      case "running":
        run.disabled = true;
        setState("Running…", false);
        break;
      case "result":
        run.disabled = false;
        setState("", false);
        output.innerHTML = typeof msg.html === "string" ? msg.html : "";
        break;
      case "inputError":
        run.disabled = false;
        input.classList.add("invalid");
        setState(String(msg.message ?? "Input is not JSON"), true);
        break;
    }
  });
})();
