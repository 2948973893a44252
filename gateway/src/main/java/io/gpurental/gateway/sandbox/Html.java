package io.gpurental.gateway.sandbox;

/** Escaping for the sandbox's server-rendered pages. */
public final class Html {
  private Html() {}

  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}
