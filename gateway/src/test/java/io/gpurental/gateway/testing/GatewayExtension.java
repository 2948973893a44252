package io.gpurental.gateway.testing;

import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Behind {@link GatewayTest}: one node per test class, kept in the class's extension store. */
final class GatewayExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GatewayExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    node(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == TestGateway.class || (type == ApiClient.class && parameter.isAnnotated(SignedIn.class));
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (parameter.getParameter().getType() == TestGateway.class) {
      return node(context);
    }
    String login = parameter.findAnnotation(SignedIn.class).orElseThrow().value();
    return classStore(context).getOrComputeIfAbsent("renter:" + login, key -> ApiClient.signIn(node(context), login),
        ApiClient.class);
  }

  private static TestGateway node(ExtensionContext context) {
    return classStore(context).getOrComputeIfAbsent("node", key -> new ClosingNode(start(context)), ClosingNode.class)
        .node();
  }

  private static TestGateway start(ExtensionContext context) {
    Map<String, String> settings = TestGateway.settings();
    GatewayTest annotation = context.getRequiredTestClass().getAnnotation(GatewayTest.class);
    for (String setting : annotation == null ? new String[0] : annotation.settings()) {
      int at = setting.indexOf('=');
      if (at <= 0) {
        throw new IllegalArgumentException("expected GATEWAY_NAME=value, got " + setting);
      }
      settings.put(setting.substring(0, at), setting.substring(at + 1));
    }
    return TestGateway.start(settings);
  }

  /** The store of the test class, also when asked from a method's context. */
  private static ExtensionContext.Store classStore(ExtensionContext context) {
    ExtensionContext classContext = context;
    while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
      classContext = classContext.getParent().get();
    }
    return classContext.getStore(NAMESPACE);
  }

  /** JUnit closes what a store holds when its context ends: here, after the class's last test. */
  private record ClosingNode(TestGateway node) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      node.close();
    }
  }
}
