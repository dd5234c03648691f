// Runs Python on MicroPython's own WebAssembly port, for the CPython side in micropython.py.
//
// One request per line on stdin, one answer per line on stdout, both JSON:
//   {"files": {"/board/protocol.mpy": "<base64>", ...}}   write files into MicroPython's FS
//   {"code": "..."}                                         run Python; answer with its output
// Answer: {"ok": true, "out": "<what it printed>"} or {"ok": false, "error": "<traceback>"}.
// argv[2] is the path of the package's micropython.mjs; argv[3] the heap size in bytes.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [, , modulePath, heapArg] = process.argv;
const { loadMicroPython } = await import(pathToFileURL(modulePath).href);
let out = "";
const text = new TextDecoder();
const mp = await loadMicroPython({
  heapsize: Number(heapArg || 1024 * 1024),
  linebuffer: false,
  stdout: (data) => { out += typeof data === "string" ? data : text.decode(data, { stream: true }); },
  stderr: (data) => { out += typeof data === "string" ? data : text.decode(data, { stream: true }); },
});

function mkdirs(path) {
  const parts = path.split("/").filter(Boolean);
  let here = "";
  for (const part of parts.slice(0, -1)) {
    here += "/" + part;
    try { mp.FS.mkdir(here); } catch { /* already there */ }
  }
}

function answer(reply) {
  process.stdout.write(JSON.stringify(reply) + "\n");
}

answer({ ok: true, out: "ready" });
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  out = "";
  try {
    const request = JSON.parse(line);
    if (request.files) {
      for (const [path, data] of Object.entries(request.files)) {
        mkdirs(path);
        mp.FS.writeFile(path, Buffer.from(data, "base64"));
      }
    }
    if (request.code) mp.runPython(request.code);
    answer({ ok: true, out });
  } catch (error) {
    answer({ ok: false, out, error: String(error && error.message ? error.message : error) });
  }
}
