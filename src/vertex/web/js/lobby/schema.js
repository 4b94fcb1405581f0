// Reading a game's options JSON Schema into form fields, without knowing any game's rules.
// The server adds two kinds of metadata to a property:
//   x-applies: {option: [values…]} (all must match) or a list of those (any may match):
//              the option only applies then, so the form hides it otherwise;
//   x-cases:   [{when, minimum?, maximum?, default?}]: the range, and the default in force
//              when left empty, in the first case that matches.

/**
 * One field per property: {name, kind, nullable, min, max, integer, values, listAuto,
 * applies, cases, title, description}. Kinds: "number", "enum", "boolean", "list", "text".
 */
export function fieldsOf(schema) {
  const props = (schema && schema.properties) || {};
  return Object.entries(props).map(([name, prop]) => describe(name, prop));
}

function describe(name, prop) {
  const branches = prop.anyOf || [prop];
  const nullable = branches.some((b) => b.type === "null");
  const real = branches.filter((b) => b.type !== "null");
  const field = {
    name,
    nullable,
    title: prop.title || name,
    description: prop.description || "",
    applies: conditions(prop["x-applies"]),
    cases: prop["x-cases"] || [],
    kind: "text",
    min: null,
    max: null,
    integer: false,
    values: [],
    listAuto: null,
  };
  const array = real.find((b) => b.type === "array");
  const enumed = real.find((b) => Array.isArray(b.enum));
  const number = real.find((b) => b.type === "integer" || b.type === "number");
  if (array) {
    // A list of names; a `const` branch beside it (Vert3x start: "auto") is what empty means.
    field.kind = "list";
    const konst = real.find((b) => "const" in b);
    field.listAuto = konst ? konst.const : null;
  } else if (enumed) {
    field.kind = "enum";
    field.values = enumed.enum;
  } else if (number) {
    field.kind = "number";
    field.integer = number.type === "integer";
    field.min = number.minimum ?? prop.minimum ?? null;
    field.max = number.maximum ?? prop.maximum ?? null;
  } else if (real.some((b) => b.type === "boolean")) {
    field.kind = "boolean";
  }
  return field;
}

function conditions(meta) {
  if (!meta) return [];
  return Array.isArray(meta) ? meta : [meta];
}

/** Does `values` (option -> value) satisfy one condition {option: [allowed…]}? */
export function matches(cond, values) {
  return Object.entries(cond).every(([key, allowed]) => allowed.includes(values[key] ?? null));
}

/**
 * The names of the fields that apply to `values`. A hidden field counts as unset (null) for
 * the others, so a chain (shape applies to classic, radius to classic hexagons) settles.
 */
export function applicable(fields, values) {
  let shown = new Set(fields.map((f) => f.name));
  for (let round = 0; round < fields.length + 1; round += 1) {
    const seen = { ...values };
    for (const f of fields) if (!shown.has(f.name)) seen[f.name] = null;
    const next = new Set(
      fields.filter((f) => !f.applies.length || f.applies.some((c) => matches(c, seen)))
        .map((f) => f.name),
    );
    if (next.size === shown.size && [...next].every((n) => shown.has(n))) return next;
    shown = next;
  }
  return shown;
}

/** The first x-case of `field` matching `values` (its range and default), or null. */
export function caseOf(field, values) {
  return field.cases.find((c) => matches(c.when, values)) || null;
}

/** Split a typed list of names ("a1 e5", "a1, e5") into names. */
export function splitList(text) {
  return String(text).split(/[\s,;]+/).filter(Boolean);
}
