#!/usr/bin/env bash
# devserver.sh: looks like a dev server starting up (fixed text, listens on
# nothing), then stays alive and silent until 60 s have passed.
set -u
printf '  VITE v5.4.0  ready in 312 ms\n'
printf '  ➜  Local:   http://localhost:5173/\n'
printf '  ➜  press h + enter to show help\n'
exec sleep 60
