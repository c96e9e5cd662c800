/**
 * The targets of an HTTP `Link` header (RFC 8288 §3) by relation type, enough for paging: a
 * comma-joined list of `<uri-reference>; param=value; …` where a `rel` may name several types
 * separated by spaces and values may be quoted. Commas inside `<…>` or quotes do not split links.
 * Targets are resolved against `base`; a link without `rel`, or whose target is no URL, is left out.
 */
export function linkTargets(header: string | null, base: string): Map<string, string> {
  const targets = new Map<string, string>();
  if (!header) return targets;
  // One link: the target in angle brackets, then its parameters up to the next unquoted comma.
  const link =
    /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)\s*(?:,|$)/gy;
  let rest = header.trim();
  link.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (rest.length > 0 && (match = link.exec(rest)) !== null) {
    const params = paramsOf(match[2] ?? '');
    const rel = params.get('rel');
    let target: string | null = null;
    try {
      target = new URL(match[1]!.trim(), base).toString();
    } catch {
      target = null;
    }
    if (rel !== undefined && target !== null) {
      for (const type of rel.toLowerCase().split(/\s+/).filter(Boolean)) {
        // The first link of a relation counts (RFC 8288 leaves several to the application).
        if (!targets.has(type)) targets.set(type, target);
      }
    }
    rest = rest.slice(link.lastIndex).replace(/^\s+/, '');
    link.lastIndex = 0;
  }
  return targets;
}

function paramsOf(text: string): Map<string, string> {
  const params = new Map<string, string>();
  const param = /;\s*([^;,=\s]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*))?/g;
  for (const m of text.matchAll(param)) {
    const name = m[1]!.toLowerCase();
    const raw = m[2] ?? '';
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // RFC 8288 §3.3: a second `rel` of one link is ignored.
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}
