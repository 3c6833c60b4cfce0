#!/usr/bin/env bash
# Regenerate the shell completion scripts from the installed CLI.
set -euo pipefail
cd "$(dirname "$0")"
for sh in bash zsh fish; do
  _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION=1 quotactl --show-completion "$sh" > "quotactl.$sh"
done
