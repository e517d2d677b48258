#!/usr/bin/env node
// The toolguard launcher: finds the native program that npm installed for
// this machine (the optional dependency @toolguard/<os>-<cpu>) and runs it
// with the same arguments, standard streams and exit status. It does no
// work of its own: hooks that toolguard installs run the native program
// directly, not this script.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

// The platforms a package is published for, by Node's names.
const PLATFORMS = {
  'linux-x64': '@toolguard/linux-x64',
  'linux-arm64': '@toolguard/linux-arm64',
  'darwin-x64': '@toolguard/darwin-x64',
  'darwin-arm64': '@toolguard/darwin-arm64',
};

function fail(lines) {
  process.stderr.write(lines.map((l) => 'toolguard: ' + l).join('\n') + '\n');
  process.exit(1);
}

function binaryPath() {
  const key = process.platform + '-' + process.arch;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    fail([
      'there is no toolguard program for ' + key + ' in this package (published: ' + Object.keys(PLATFORMS).join(', ') + ').',
      'Build it from source with Go 1.26 or later: go install github.com/toolguard/toolguard/cmd/toolguard@latest',
    ]);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(pkg + '/package.json'));
  } catch (_) {
    fail([
      'the package ' + pkg + ', which holds the program for ' + key + ', is not installed.',
      'npm installs it as an optional dependency of toolguard: it is missing when optional dependencies are',
      'omitted (--omit=optional, --no-optional, NODE_ENV=production with some tools) or when the install ran on',
      'another platform. Reinstall without omitting them: npm install -g toolguard (or npx toolguard@latest),',
      'or use a release archive or go install github.com/toolguard/toolguard/cmd/toolguard@latest.',
    ]);
  }
  const bin = path.join(dir, 'bin', 'toolguard');
  if (!fs.existsSync(bin)) {
    fail(['the package ' + pkg + ' has no program at ' + bin + '; reinstall toolguard.']);
  }
  return bin;
}

function run(bin, retried) {
  const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });
  // A signal sent to this process (a service manager's SIGTERM, a hang-up)
  // is passed on, so that the program never outlives its launcher.
  const forward = (sig) => () => { child.kill(sig); };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((sig) => [sig, forward(sig)]);
  for (const [sig, h] of handlers) process.on(sig, h);
  child.on('error', (err) => {
    for (const [sig, h] of handlers) process.removeListener(sig, h);
    if (err.code === 'EACCES' && !retried) {
      // Some installers drop the executable bit of files outside "bin".
      try { fs.chmodSync(bin, 0o755); } catch (_) { /* reported on the retry */ }
      run(bin, true);
      return;
    }
    fail(['could not run ' + bin + ': ' + err.message]);
  });
  child.on('exit', (code, signal) => {
    for (const [sig, h] of handlers) process.removeListener(sig, h);
    if (signal) {
      process.kill(process.pid, signal); // end as the program did
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

run(binaryPath(), false);
