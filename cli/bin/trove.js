#!/usr/bin/env node
// The `trove` command: a committed, executable entry (npm links bins when it installs, before the build
// has made dist/), handing over to the compiled program.
require('../dist/main.js').main(process.argv);
