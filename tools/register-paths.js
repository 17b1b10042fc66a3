// Resolves the workspace's path aliases (tsconfig.base.json) to the compiled files under dist/.
const path = require('node:path');
const tsConfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../tsconfig.base.json');

const paths = {};
for (const [alias, targets] of Object.entries(compilerOptions.paths)) {
  paths[alias] = targets.map((target) => target.replace(/\.ts$/, '.js'));
}
tsConfigPaths.register({ baseUrl: path.join(__dirname, '..', 'dist'), paths });
