#!/bin/sh
# Entry point of the container image (behind tini). Its arguments go to the `enclave` CLI:
#   docker run IMAGE                       -> enclave serve
#   docker run IMAGE keys list             -> enclave keys list
#   docker run IMAGE enclave keys list     -> the same (the command's name may be given)
# `docker exec CONTAINER enclave …` works too: `enclave` is on PATH in the image.
set -e
if [ "$#" -eq 0 ]; then set -- serve; fi
if [ "$1" = "enclave" ]; then
  shift
  if [ "$#" -eq 0 ]; then set -- --help; fi
fi
exec node "$(dirname "$0")/enclave.js" "$@"
