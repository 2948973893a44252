# Multi-stage build of the gateway's shaded jar (web UI included) and a slim runtime image.

# Build: the same toolchain as the project's reference machine (Debian 12: Java 17, Maven 3.8,
# Node 20 from the node image).
FROM node:20-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openjdk-17-jdk-headless maven \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN mvn -B -DskipTests package

# Run: a JRE, a non-root user, the jar. Embedded PostgreSQL keeps its data in /app/data
# (mount a volume there), or set GATEWAY_DB_URL to use a PostgreSQL server.
FROM eclipse-temurin:17-jre
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --create-home --home-dir /app gateway \
 && mkdir -p /app/data \
 && chown -R gateway:gateway /app
WORKDIR /app
COPY --from=build /src/gateway/target/gpu-rental-gateway.jar /app/gpu-rental-gateway.jar
USER gateway
# All interfaces, as a container must listen. The default sandbox mode then refuses to start
# (anyone who reaches it could sign in as the operator) until either GATEWAY_MODE=production
# with its settings, or GATEWAY_SANDBOX_ALLOW_PUBLIC=true for a demo published on the host's
# loopback only (docker run -p 127.0.0.1:8080:8080 …). See docs/cluster.md, "Docker".
ENV GATEWAY_HTTP_HOST=0.0.0.0 \
    GATEWAY_DB_EMBEDDED_DATA_DIR=/app/data/postgres
VOLUME ["/app/data"]
EXPOSE 8080 5701
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/health/ready || exit 1
# exec form: SIGTERM reaches the JVM, which drains and stops cleanly.
# Memory (docs/benchmarks.md, part 10): the heap gets half the container's limit, because the JVM
# needs ~150-200 MiB besides it (classes, JIT code, threads, buffers): with 75 % a 512 MiB container
# reached 626 MiB and would be killed. The serial collector is what the JVM picks by itself below
# 2 GiB or 2 cores, and needs ~40 MiB less than G1; set, so every machine runs the same.
# Embedded PostgreSQL runs in the same container: size the limit for it too, or set GATEWAY_DB_URL.
ENTRYPOINT ["java", "-XX:+UseSerialGC", "-XX:MaxRAMPercentage=50", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/gpu-rental-gateway.jar"]
