#!/bin/bash
# A deterministic Enclave agent: fixes a fixed list of common misspellings in the docs.
# It needs no model, so it is a safe way to try agent jobs end to end.
#
# Enclave runs it with:
#   cwd    a scratch clone of the docs repository, on branch enclave/agent/<job id>
#   stdin  the prompt (also in $ENCLAVE_PROMPT); this agent only logs it
#   env    PATH, HOME (empty scratch dir), LANG, ENCLAVE_PROMPT, ENCLAVE_MODEL, ENCLAVE_JOB_ID
# Whatever it changes in the work tree, Enclave commits and pushes; exit non-zero to fail the job.
set -euo pipefail

prompt="$(cat)"
echo "job ${ENCLAVE_JOB_ID}: ${prompt%%$'\n'*}"

# wrong:right pairs, matched as whole words.
fixes=(teh:the recieve:receive occured:occurred seperate:separate definately:definitely
       accomodate:accommodate enviroment:environment dependancy:dependency wich:which)

changed=0
while IFS= read -r -d '' file; do
  before="$(sha256sum "$file")"
  for pair in "${fixes[@]}"; do
    sed -i -E "s/\\b${pair%%:*}\\b/${pair##*:}/g" "$file"
  done
  if [ "$(sha256sum "$file")" != "$before" ]; then
    echo "fixed: $file"
    changed=$((changed + 1))
  fi
done < <(find . -path ./.git -prune -o -type f \( -name '*.md' -o -name '*.mdx' \) -print0)

echo "files changed: $changed"
