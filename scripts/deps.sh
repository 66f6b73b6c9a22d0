#!/bin/sh
# Installs the Debian packages named as arguments when any is missing: with
# apt-get when run as root, otherwise prints the exact command and fails.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null \
		|| { echo "deps: apt-get install$missing failed" >&2; exit 1; }
else
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: run:  sudo apt-get install$missing" >&2
	exit 1
fi
