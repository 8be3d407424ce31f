#!/usr/bin/env node
// Entry point: runs the TypeScript sources directly (Node >= 22.18 strips types natively).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `rdfscout needs Node >= 22.18 (this is ${process.version}). Run it through npm (\`npm run demo\`, \`npx rdfscout\`), which uses the Node that \`npm install\` put in node_modules, or install a newer Node.`,
  );
  process.exit(2);
}
// Start again in place (same process id, so signals and exit codes are unchanged) with the V8 flags that keep
// memory bounded, unless they are given already (or the platform cannot exec).
const { CLI_NODE_FLAGS } = await import('../src/node-flags.ts');
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const missing = CLI_NODE_FLAGS.filter((f) => !given.some((g) => g.split('=')[0] === f.split('=')[0]));
if (missing.length > 0 && typeof process.execve === 'function' && process.env.RDFSCOUT_NO_EXEC === undefined) {
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, process.argv[1], ...process.argv.slice(2)], process.env);
}
await import('../src/cli.ts');
