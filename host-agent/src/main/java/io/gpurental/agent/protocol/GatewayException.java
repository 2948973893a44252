package io.gpurental.agent.protocol;

/** The gateway answered with a status the call does not expect. */
public final class GatewayException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;

  public GatewayException(String call, int status, String body) {
    super(call + " answered " + status + (body == null || body.isBlank() ? "" : ": " + abbreviate(body)));
    this.status = status;
  }

  public int status() {
    return status;
  }

  public static boolean isUnauthorized(Throwable t) {
    return t instanceof GatewayException g && g.status == 401;
  }

  public static boolean isNotFound(Throwable t) {
    return t instanceof GatewayException g && g.status == 404;
  }

  private static String abbreviate(String body) {
    return body.length() > 300 ? body.substring(0, 300) + "…" : body;
  }
}
