#!/usr/bin/env node
// Entry point: runs the TypeScript sources directly (Node >= 22.18 strips types natively).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `rdfscout needs Node >= 22.18 (this is ${process.version}). Run it through npm (\`npm run demo\`, \`npx rdfscout\`), which uses the Node that \`npm install\` put in node_modules, or install a newer Node.`,
  );
  process.exit(2);
}
await import('../src/cli.ts');
