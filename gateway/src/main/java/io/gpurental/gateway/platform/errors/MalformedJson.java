package io.gpurental.gateway.platform.errors;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.vertx.core.json.DecodeException;

/** 400: the request body is not JSON at all; the detail says where parsing broke. */
public final class MalformedJson extends ApiException {
  public MalformedJson(DecodeException cause) {
    super(400, "malformed-json", "Malformed JSON", "The request body is not valid JSON: " + describe(cause), null);
  }

  private static String describe(DecodeException e) {
    if (e.getCause() instanceof JsonProcessingException parse) {
      JsonLocation at = parse.getLocation();
      String where = at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
      return parse.getOriginalMessage() + where;
    }
    return "it could not be parsed";
  }
}
