#!/usr/bin/env bash
# Prepares this machine for host-agent's container-runtime tests (they drive Podman through its
# Docker-compatible socket; each test class starts its own `podman system service` on a socket of
# its own). Idempotent: every step runs only when its result is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# docker-registry: a local registry of its own for the uncached-pull test (no registry is reachable)
need=()
for tool in podman:podman runc:runc newuidmap:uidmap mmdebstrap:mmdebstrap dropbear:dropbear-bin \
    dropbearconvert:dropbear-bin ssh-keygen:openssh-client ssh:openssh-client iptables:iptables \
    docker-registry:docker-registry; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${tool%%:*}" ] || need+=("${tool##*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

# crun refuses the hybrid cgroups of these machines; ulimits above the hard limits need
# CAP_SYS_RESOURCE, which these machines lack
if [ ! -f /etc/containers/containers.conf ]; then
  mkdir -p /etc/containers
  cat > /etc/containers/containers.conf <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]

[engine]
runtime = "runc"
CONF
fi

# --userns=auto takes its ranges from the "containers" entries
for f in /etc/subuid /etc/subgid; do
  grep -q '^containers:' "$f" 2>/dev/null || echo 'containers:2147483647:2147483648' >> "$f"
done

# one small test image from Debian's packages (no registry is reachable here), built once
image=localhost/gpr-test:bookworm
if ! podman image exists "$image"; then
  cache=host-agent/target/podman-cache
  mkdir -p "$cache"
  if [ ! -s "$cache/bookworm.tar" ]; then
    mmdebstrap --format=tar --variant=minbase --include=iproute2,procps bookworm "$cache/bookworm.tar.part"
    mv "$cache/bookworm.tar.part" "$cache/bookworm.tar"
  fi
  podman import --change 'CMD ["/bin/sh"]' "$cache/bookworm.tar" "$image"
fi
