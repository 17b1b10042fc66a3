// Lints source texts as if they sat at the given paths, with the workspace's eslint.config.mjs.
// Runs in its own Node process: ESLint loads its ESM config by dynamic import, which Jest's VM lacks.
// stdin: [{ filePath, code }] (paths relative to the workspace root); stdout: [["ruleId: message", …], …].
const path = require('node:path');
const { ESLint } = require('eslint');

const root = path.resolve(__dirname, '../../../../..');
const rules = new Set(['@nx/enforce-module-boundaries', 'no-restricted-imports']);

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const fixtures = JSON.parse(input);
  const eslint = new ESLint({
    cwd: root,
    // The type-aware rules need the files on disk; only the boundary rules matter here.
    overrideConfig: { languageOptions: { parserOptions: { project: false, projectService: false } } },
    ruleFilter: ({ ruleId }) => rules.has(ruleId),
  });
  const out = [];
  for (const { filePath, code } of fixtures) {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
    out.push(result.messages.map((m) => `${m.ruleId}: ${m.message}`));
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
