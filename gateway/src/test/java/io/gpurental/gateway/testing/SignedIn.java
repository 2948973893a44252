package io.gpurental.gateway.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** An {@link ApiClient} parameter of a {@link GatewayTest}: that sandbox GitHub login, signed in once per class. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface SignedIn {
  /** The sandbox GitHub login ({@code operator} also gets the operator scope). */
  String value();
}
