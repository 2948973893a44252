package io.gpurental.gateway.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts one real gateway node for the annotated test class (fresh ports, its own cluster name, a
 * database copied from the migrated template) and stops it after the last test. Test methods,
 * constructors and {@code @BeforeAll} methods receive it as a {@link TestGateway} parameter, and
 * signed-in renters as {@link ApiClient} parameters annotated with {@link SignedIn}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
@ExtendWith(GatewayExtension.class)
public @interface GatewayTest {
  /** Extra settings on top of {@link TestGateway#settings()}, each as {@code GATEWAY_NAME=value}. */
  String[] settings() default {};
}
