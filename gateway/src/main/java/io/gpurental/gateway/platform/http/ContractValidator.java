package io.gpurental.gateway.platform.http;

import static io.vertx.openapi.validation.SchemaValidationException.createErrorFromOutputUnitType;
import static io.vertx.openapi.validation.SchemaValidationException.createInvalidValueBody;
import static io.vertx.openapi.validation.ValidatorException.createMissingRequiredParameter;
import static io.vertx.openapi.validation.ValidatorException.createUnsupportedValueFormat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaValidationException;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.contract.Path;
import io.vertx.openapi.contract.Style;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatableRequest;
import io.vertx.openapi.validation.ValidatedRequest;
import io.vertx.openapi.validation.ValidationContext;
import io.vertx.openapi.validation.ValidatorErrorType;
import io.vertx.openapi.validation.ValidatorException;
import io.vertx.openapi.validation.analyser.ContentAnalyser;
import io.vertx.openapi.validation.impl.RequestParameterImpl;
import io.vertx.openapi.validation.impl.RequestValidatorImpl;
import io.vertx.openapi.validation.impl.ValidatedRequestImpl;
import io.vertx.openapi.validation.transformer.FormTransformer;
import io.vertx.openapi.validation.transformer.LabelTransformer;
import io.vertx.openapi.validation.transformer.MatrixTransformer;
import io.vertx.openapi.validation.transformer.ParameterTransformer;
import io.vertx.openapi.validation.transformer.SimpleTransformer;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * vertx-openapi's request validator with two costs taken out, the answers unchanged. (1) It asked
 * the schema repository for a new validator for every parameter and body of every request, and
 * each new one copied the contract's whole schema lookup: 38 % of the offer page's Java samples
 * (docs/benchmarks.md, part 9). A validator keeps no state between validations, so one per schema
 * is made here once, at start. (2) It validated every request on a worker thread, ordered per
 * event loop, so the requests of a loop queued for one worker; a request without a body (its
 * parameters are a few short strings) is validated where it arrived instead.
 */
final class ContractValidator extends RequestValidatorImpl {
  private final Map<JsonSchema, Validator> validators = new IdentityHashMap<>();
  private final Map<Style, ParameterTransformer> transformers = new EnumMap<>(Style.class);

  ContractValidator(Vertx vertx, OpenAPIContract contract) {
    super(vertx, contract);
    transformers.put(Style.SIMPLE, new SimpleTransformer());
    transformers.put(Style.LABEL, new LabelTransformer());
    transformers.put(Style.MATRIX, new MatrixTransformer());
    transformers.put(Style.FORM, new FormTransformer());
    for (Path path : contract.getPaths()) {
      for (Operation operation : path.getOperations()) {
        operation.getParameters().forEach(parameter -> prepare(parameter.getSchema()));
        if (operation.getRequestBody() != null) {
          operation.getRequestBody().getContent().values().forEach(media -> prepare(media.getSchema()));
        }
      }
    }
  }

  private void prepare(JsonSchema schema) {
    if (schema != null) {
      validators.computeIfAbsent(schema, contract.getSchemaRepository()::validator);
    }
  }

  private Validator validatorOf(JsonSchema schema) {
    Validator prepared = validators.get(schema);
    return prepared != null ? prepared : contract.getSchemaRepository().validator(schema);
  }

  @Override
  public Future<ValidatedRequest> validate(ValidatableRequest request, String operationId) {
    Operation operation = contract.operation(operationId);
    if (operation == null || operation.getRequestBody() != null) {
      return super.validate(request, operationId);
    }
    try {
      return Future.succeededFuture(parametersOf(operation, request));
    } catch (RuntimeException invalid) {
      return Future.failedFuture(invalid);
    }
  }

  /** As {@link RequestValidatorImpl#validateParameter}, with the schema's prepared validator. */
  @Override
  public RequestParameter validateParameter(Parameter parameter, RequestParameter value) {
    if (value == null || value.isNull()) {
      if (parameter.isRequired()) {
        throw createMissingRequiredParameter(parameter);
      }
      return new RequestParameterImpl(null);
    }
    ParameterTransformer transformer = transformers.get(parameter.getStyle());
    if (transformer == null) {
      throw createUnsupportedValueFormat(parameter);
    }
    Object transformed = transformer.transform(parameter, String.valueOf(value.get()));
    OutputUnit result = validatorOf(parameter.getSchema()).validate(transformed);
    try {
      result.checkValidity();
      return new RequestParameterImpl(transformed);
    } catch (JsonSchemaValidationException e) {
      throw createErrorFromOutputUnitType(parameter, result, e);
    }
  }

  /** As the base class's body validation, with the schema's prepared validator. */
  @Override
  protected RequestParameterImpl validate(MediaType mediaType, String contentType, Buffer rawContent,
      ValidationContext requestOrResponse) {
    ContentAnalyser analyser = mediaType == null ? null
        : ContentAnalyser.getContentAnalyser(mediaType, contentType, rawContent, requestOrResponse);
    if (analyser == null) {
      throw new ValidatorException("The format of the " + requestOrResponse + " body is not supported",
          ValidatorErrorType.UNSUPPORTED_VALUE_FORMAT);
    }
    analyser.checkSyntacticalCorrectness();
    if (!isSchemaValidationRequired(mediaType)) {
      return new RequestParameterImpl(rawContent);
    }
    Object transformed = analyser.transform();
    OutputUnit result = validatorOf(mediaType.getSchema()).validate(transformed);
    try {
      result.checkValidity();
      return new RequestParameterImpl(transformed);
    } catch (JsonSchemaValidationException e) {
      throw createInvalidValueBody(result, requestOrResponse, e);
    }
  }

  /** As the base class's validation of a request, for an operation without a body, where it is called. */
  private ValidatedRequest parametersOf(Operation operation, ValidatableRequest request) {
    Map<String, RequestParameter> cookies = new HashMap<>();
    Map<String, RequestParameter> headers = new HashMap<>();
    Map<String, RequestParameter> path = new HashMap<>();
    Map<String, RequestParameter> query = new HashMap<>();
    for (Parameter parameter : operation.getParameters()) {
      String name = parameter.getName();
      switch (parameter.getIn()) {
        case COOKIE -> cookies.put(name, validateParameter(parameter, request.getCookies().get(name)));
        case HEADER -> headers.put(name, validateParameter(parameter, request.getHeaders().get(name)));
        case PATH -> path.put(name, validateParameter(parameter, request.getPathParameters().get(name)));
        case QUERY -> query.put(name, validateParameter(parameter, request.getQuery().get(name)));
      }
    }
    return new ValidatedRequestImpl(cookies, headers, path, query, new RequestParameterImpl(null));
  }
}
