#!/usr/bin/env bash
# Makes sure Debian's nginx is installed for the offline-mirror test.
set -euo pipefail
[ -x /usr/sbin/nginx ] || bash "$(dirname "$0")/apt-install.sh" nginx-light nginx
[ -x /usr/sbin/nginx ]
