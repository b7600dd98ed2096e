#!/usr/bin/env node
// Before the tests: the system tools they drive must be on the machine. On a fresh Debian
// machine (as root) they are installed from Debian's packages; elsewhere the error says how.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');
let updated = false;

function aptInstall(pkgs) {
  if (!isRoot || !hasApt) return false;
  if (!updated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    updated = true;
  }
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

// Chromium for the e2e tests, the report tests and the benchmarks: CHROMIUM_PATH, else Debian's
// headless shell (the lighter build: the e2e suite takes about a third less time in it), else
// Debian's full browser (cli/report/chromium.ts chooses the same way).
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL = '/usr/bin/chromium';
if (process.env.CHROMIUM_PATH) {
  if (!fs.existsSync(process.env.CHROMIUM_PATH)) {
    console.error(
      `meshdx tests: CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist. Set it to a Chromium binary, or unset it to use Debian's.`,
    );
    process.exit(1);
  }
} else if (!fs.existsSync(HEADLESS_SHELL)) {
  console.log(
    `meshdx tests: ${HEADLESS_SHELL} is missing; installing Debian's chromium-headless-shell…`,
  );
  if (!aptInstall(['chromium-headless-shell']) && !fs.existsSync(FULL)) {
    console.error(
      `meshdx tests: Chromium is required for the e2e tests and neither ${HEADLESS_SHELL} nor ${FULL} is there.\n` +
        'Install one with `sudo apt-get install -y chromium-headless-shell` (or chromium), or set CHROMIUM_PATH to a Chromium binary.',
    );
    process.exit(1);
  }
}

// Optional: real kubectl for the compatibility tests (they say so when they skip).
if (!which('kubectl') && !aptInstall(['kubernetes-client'])) {
  console.warn(
    'meshdx tests: kubectl not found and could not be installed; the kubectl compatibility tests will be skipped.',
  );
}

// Prometheus for the kube-state-metrics history tests (they fail in CI without it, and say
// they are skipped elsewhere).
const prometheus = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
if (!fs.existsSync(prometheus) && !aptInstall(['prometheus'])) {
  console.warn(
    `meshdx tests: ${prometheus} not found and could not be installed (sudo apt-get install -y prometheus); the Prometheus history tests will be skipped.`,
  );
}
