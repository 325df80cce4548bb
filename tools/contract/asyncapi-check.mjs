// Validate an AsyncAPI document with the official parser (@asyncapi/parser): every reference resolved
// (relative ones against the file's folder), zero diagnostics of severity error.
//   node tools/contract/asyncapi-check.mjs service/asyncapi.yaml
import { Parser, fromFile } from '@asyncapi/parser';

const file = process.argv[2];
const parser = new Parser();
const { document, diagnostics } = await fromFile(parser, file).parse();
const errors = diagnostics.filter((d) => d.severity === 0);
for (const d of diagnostics) {
  const level = ['error', 'warning', 'info', 'hint'][d.severity] ?? d.severity;
  console.log(`${level} ${d.code} ${d.path.join('.')}: ${d.message}`);
}
if (!document || errors.length) {
  console.error(`${file}: ${errors.length} error(s)`);
  process.exit(1);
}
const messages = document.allMessages().all().map((m) => m.id());
console.log(`${file}: valid AsyncAPI ${document.version()}, messages: ${messages.join(', ')}`);
