// Offline validation of Kubernetes objects against the Kubernetes API schema
// (and the Prometheus Operator and Istio CRD schemas), with no cluster.
//
// Two passes, because neither alone is strict enough:
//  1. runtime: the kubernetes-models JSON-schema validators (ajv): types,
//     required fields, enums, formats (int32, quantities, ...). The Kubernetes
//     OpenAPI schemas allow unknown fields, so a typo such as `servicee:` in a
//     probe passes this pass.
//  2. strict: every object becomes a TypeScript object literal typed with the
//     package's interface (IDeployment, IServiceMonitor, ...) and is compiled
//     in memory with `tsc --strict`; TypeScript rejects unknown properties in
//     object literals at every depth (what `kubeconform -strict` rejects).
// Limits: no admission rules (CEL, defaulting), no cross-object checks; the
// callers check the references between objects they care about.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import YAML from "yaml";

const here = path.dirname(fileURLToPath(import.meta.url));

// Module of the model class for an apiVersion/kind, or null if unknown.
export function modelModule(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/")
    ? apiVersion.split("/")
    : ["", apiVersion];
  if (group === "monitoring.coreos.com") {
    return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  }
  if (group.endsWith(".istio.io")) {
    return `@kubernetes-models/istio/${apiVersion}/${kind}`;
  }
  if (group.includes(".") && !group.endsWith(".k8s.io")) return null;
  return group === ""
    ? `kubernetes-models/${version}/${kind}`
    : `kubernetes-models/${group}/${version}/${kind}`;
}

// All YAML documents of `file` (empty documents dropped). Throws on YAML
// errors and on duplicate keys.
export function loadDocs(file) {
  const text = fs.readFileSync(file, "utf8");
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true });
  const out = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${file}: ${d.errors[0].message}`);
    const value = d.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

export function describe(obj) {
  return `${obj?.kind ?? "?"}/${obj?.metadata?.name ?? "?"}`;
}

// Pass 1. Returns a list of error strings.
export async function validateRuntime(objs) {
  const errors = [];
  for (const obj of objs) {
    const mod = obj?.apiVersion && obj?.kind
      ? modelModule(obj.apiVersion, obj.kind) : null;
    if (!mod) {
      errors.push(`${describe(obj)}: no schema for apiVersion ` +
                  `${obj?.apiVersion} kind ${obj?.kind}`);
      continue;
    }
    let Model;
    try {
      Model = (await import(mod))[obj.kind];
    } catch (e) {
      errors.push(`${describe(obj)}: no schema for ${obj.apiVersion} ` +
                  `${obj.kind} (${e.code ?? e.message})`);
      continue;
    }
    try {
      new Model(obj).validate();
    } catch (e) {
      errors.push(`${describe(obj)}: ${e.message}`);
    }
  }
  return errors;
}

// Pass 2. Returns a list of error strings. The program is built in memory:
// a virtual file beside this script imports the interfaces from
// node_modules.
export function validateStrict(objs) {
  const virtual = path.join(here, "__manifests__.ts");
  const lines = [];
  const starts = [];  // first line (0-based) of each object's literal
  objs.forEach((obj, i) => {
    const mod = modelModule(obj.apiVersion, obj.kind);
    if (!mod) return;
    lines.push(`import type { I${obj.kind} as T${i} } from "${mod}";`);
  });
  objs.forEach((obj, i) => {
    if (!modelModule(obj.apiVersion, obj.kind)) return;
    starts.push([lines.length, i]);
    const literal = JSON.stringify(obj, null, 2).split("\n");
    literal[0] = `export const m${i}: T${i} = ${literal[0]}`;
    literal[literal.length - 1] += ";";
    lines.push(...literal);
  });
  const source = lines.join("\n");
  // No standard library: the models' declarations need only these globals,
  // and skipping lib.es*.d.ts makes the check several times faster.
  const minimalLib = path.join(here, "__minimal_lib__.d.ts");
  const minimalLibText = `
    interface Array<T> { length: number; [n: number]: T; }
    interface ReadonlyArray<T> { readonly length: number; readonly [n: number]: T; }
    interface Boolean {} interface Function {} interface CallableFunction {}
    interface NewableFunction {} interface IArguments {} interface Number {}
    interface Object {} interface RegExp {} interface String {}
    interface Symbol {} interface PropertyDescriptor {}
    type Record<K extends keyof any, T> = { [P in K]: T };
    type Partial<T> = { [P in keyof T]?: T[P] };
    type Omit<T, K extends keyof any> = { [P in Exclude<keyof T, K>]: T[P] };
    type Pick<T, K extends keyof T> = { [P in K]: T[P] };
    type Exclude<T, U> = T extends U ? never : T;`;
  const options = {
    strict: true,
    noEmit: true,
    noLib: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const virtualFiles = new Map([[virtual, source], [minimalLib, minimalLibText]]);
  host.getSourceFile = (name, lang, ...rest) =>
    virtualFiles.has(path.resolve(name))
      ? ts.createSourceFile(name, virtualFiles.get(path.resolve(name)), lang)
      : getSourceFile(name, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) =>
    virtualFiles.has(path.resolve(name)) || fileExists(name);
  const program = ts.createProgram([minimalLib, virtual], options, host);
  const errors = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n  ");
    if (!d.file || path.resolve(d.file.fileName) !== virtual) {
      errors.push(`typescript: ${message}`);
      continue;
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    let owner = null;
    for (const [start, i] of starts) if (start <= line) owner = i;
    const where = owner === null ? "imports" : describe(objs[owner]);
    const text = owner === null ? "" :
      ` at: ${lines[line].trim()}`;
    errors.push(`${where}: ${message}${text}`);
  }
  return errors;
}

// Both passes; prints what it checked and returns the number of errors.
export async function validateAll(objs, label) {
  const errors = [...await validateRuntime(objs), ...validateStrict(objs)];
  for (const e of errors) console.error(`FAIL ${label}: ${e}`);
  if (!errors.length) {
    console.log(`ok ${label}: ${objs.length} objects valid against the ` +
                `schema (${objs.map(describe).join(", ")})`);
  }
  return errors.length;
}
