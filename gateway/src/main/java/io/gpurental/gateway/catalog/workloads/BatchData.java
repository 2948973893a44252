package io.gpurental.gateway.catalog.workloads;

import java.util.List;

/**
 * Batch data processing on GPUs (RAPIDS cuDF, Dask-cuDF, Spark RAPIDS): the data in GPU memory
 * plus as much again for the intermediates of joins, group-bys and sorts; partitions spread over
 * GPUs, and shuffles work over PCIe.
 */
final class BatchData implements Family {
  static final String ID = "batch-data";
  static final double WORKING_FACTOR = 2.0;

  @Override
  public Preset preset() {
    return new Preset(ID, "Batch data processing", "Dataframe and SQL work on GPUs (RAPIDS cuDF, Dask-cuDF, Spark RAPIDS).",
        List.of(Parameter.number("dataset_gb", "GB", 20.0, 0.1, 100_000, "The data as loaded in memory (not compressed).")),
        "working set = 2 × the data in memory (the data plus the intermediates of joins, group-bys and sorts; our"
            + " planning figure) + 10 % runtime overhead (at least 1 GB); partitions spread over GPUs. Host RAM ≥"
            + " the data (at least 16 GB); disk = the data + 20 GB.",
        List.of(new Preset.Source("RAPIDS cuDF documentation", "https://docs.rapids.ai/api/cudf/stable/"),
            new Preset.Source("Dask-cuDF: multi-GPU dataframes", "https://docs.rapids.ai/api/dask-cudf/stable/")));
  }

  @Override
  public Need need(Args args) {
    double data = args.number("dataset_gb");
    return Need.of(List.of(new Need.Part("data", data), new Need.Part("intermediates", data * (WORKING_FACTOR - 1))),
        true, false, Math.max(16, data), data + 20, Need.gb(data) + " of data and as much again for intermediates");
  }
}
