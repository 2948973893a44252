package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * The sandbox's image templates (PyTorch, vLLM, Jupyter on 8888, plain CUDA) with made-up but
 * well-formed digests, two allowed registries for custom images, and the demo hosts' facts and
 * image caches as their simulated agents would report them: runtime {@code simulated}, every
 * demo template cached. Idempotent: a template the operator changed or retired stays as it is,
 * and the registries are set only while no operator has set them.
 */
final class DemoImages {
  private static final String TEMPLATES = """
      INSERT INTO image_templates (id, name, ref, description, default_ports, min_driver_version, min_cuda_version,
                                   is_default)
      VALUES
        ('img_demo_pytorch', 'PyTorch 2.5 (CUDA 12.4)',
         'docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime@sha256:d9097720c76058f761d992bea24bb289b891dccd267dac8d0eebb560e8cac5f3',
         'PyTorch 2.5.1, CUDA 12.4, cuDNN 9, Python 3.11 and pip on Ubuntu 22.04.', '{}', '550.54', '12.4', true),
        ('img_demo_vllm', 'vLLM 0.6 (OpenAI-compatible server)',
         'docker.io/vllm/vllm-openai:v0.6.4@sha256:a0a7646047e27a88ee0d42d3ced95464e2b796d92bb7b0eed7aeea0b614ac0f6',
         'vLLM 0.6.4 serving an OpenAI-compatible API on port 8000; PyTorch 2.5, CUDA 12.4.', '{8000}', '550.54',
         '12.4', false),
        ('img_demo_jupyter', 'Jupyter (PyTorch, CUDA 12)',
         'quay.io/jupyter/pytorch-notebook:cuda12-2024-12-02@sha256:35892435003a473c698e98b486d6b44e34b14893336791847d7f8690b9b05458',
         'JupyterLab 4 with PyTorch, NumPy, pandas and Matplotlib; the notebook server on port 8888.', '{8888}',
         '525.60', '12.0', false),
        ('img_demo_cuda', 'CUDA 12.4 base (Ubuntu 22.04)',
         'nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04@sha256:c640c54fcef65245766e652a45b932615b24dbfcdda5ec43701143e86a30fe66',
         'The CUDA 12.4 runtime on Ubuntu 22.04, nothing else: bring your own stack.', '{}', '550.54', '12.4', false)
      ON CONFLICT DO NOTHING""";
  private static final String REGISTRIES = """
      UPDATE image_settings SET allowed_registries = '{ghcr.io,nvcr.io}', updated_at = now()
      WHERE updated_by IS NULL AND cardinality(allowed_registries) = 0""";
  private static final String RUNTIME = """
      UPDATE host_facts SET runtime = 'simulated' WHERE host_id = ANY ($1) AND runtime IS NULL""";
  private static final String CACHES = """
      INSERT INTO host_images (host_id, ref, digest, size_bytes, last_used_at)
      SELECT h, t.ref, split_part(t.ref, '@', 2), 9000000000, now() FROM unnest($1::text[]) AS h
      CROSS JOIN image_templates t WHERE t.id LIKE 'img_demo_%'
      ON CONFLICT (host_id, ref) DO NOTHING""";

  private DemoImages() {}

  static Future<Void> seed(Pool pool, String[] hostIds) {
    return pool.withTransaction(tx -> tx.query(TEMPLATES).execute()
        .compose(v -> tx.query(REGISTRIES).execute())
        .compose(v -> tx.preparedQuery(RUNTIME).execute(Tuple.of((Object) hostIds)))
        .compose(v -> tx.preparedQuery(CACHES).execute(Tuple.of((Object) hostIds)))
        .mapEmpty());
  }
}
