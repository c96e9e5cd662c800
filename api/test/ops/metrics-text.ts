/**
 * Reads one sample from Prometheus text: the value of `name` whose labels include `labels`
 * (0 when no such line, as a counter that was never incremented has none).
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const [, labelText = '', value = ''] = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line) ?? [];
    const found = Object.fromEntries(
      [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, wanted]) => found[key] === wanted)) return Number(value);
  }
  return 0;
}
