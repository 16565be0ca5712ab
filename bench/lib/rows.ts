/** The run's rows: one per figure measured, in the order measured; the report is made of them. */
export interface Row {
  id: string;
  figure: string;
  /** What ran: client, connections (or offered rate) and measured seconds, or rounds. */
  load: string;
  value: number | null;
  unit: string;
  baseline: string;
  baselineValue: number | null;
  ratio: number | null;
  p50: number | null;
  p99: number | null;
  rssMb: number | null;
  /**
   * B1, B2: the server's CPU time per answered request (all its threads), the figure's and
   * the baseline's of the same round. Throughput on 2 shared cores is also bounded by
   * waiting; CPU per request says what each request costs.
   */
  cpuUs?: { figure: number | null; baseline: number | null };
  /** The load client's own CPU time per answered request (the bench process), figure side. */
  clientCpuUs?: number | null;
  goal: string;
  met: boolean | null;
  /** Facts the goals table reads (store, client, group size, …). */
  tags?: Record<string, string | number>;
}

export const rows: Row[] = [];

export function add(r: Omit<Row, 'ratio' | 'met'> & { goalRatio?: number; goalAbs?: number; goalRatioMax?: number }) {
  const ratio = r.value !== null && r.baselineValue ? r.value / r.baselineValue : null;
  let met: boolean | null = null;
  if (r.goalRatio !== undefined && ratio !== null) met = ratio >= r.goalRatio;
  if (r.goalRatioMax !== undefined && ratio !== null) met = ratio <= r.goalRatioMax;
  if (r.goalAbs !== undefined && r.value !== null) met = r.value <= r.goalAbs;
  const { goalRatio: _a, goalAbs: _b, goalRatioMax: _c, ...row } = r;
  rows.push({ ...row, ratio, met });
  console.log(`${r.id} ${r.figure} [${r.load}]: ${r.value?.toFixed(1)} ${r.unit} vs ${r.baseline} ${r.baselineValue?.toFixed(1) ?? '-'}${ratio !== null ? ` (ratio ${ratio.toFixed(2)})` : ''}`);
}
