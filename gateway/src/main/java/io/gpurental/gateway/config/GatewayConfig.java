package io.gpurental.gateway.config;

/** The whole typed configuration of one gateway node. */
public record GatewayConfig(
    Mode mode, HttpConfig http, DbConfig db, ClusterConfig cluster, AuthConfig auth, RateLimitConfig rateLimits,
    PricingConfig pricing, StripeConfig stripe, ReservationConfig reservations, ManagementConfig management,
    EventsConfig events, FleetConfig fleet, AlertsConfig alerts, SandboxConfig sandbox, MailConfig mail) {}
