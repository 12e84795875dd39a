/** What a runner wants drawn while a run goes: plain data, so runners stay free of any view code. */
export interface LivePlot {
  title: string;
  xLabel: string;
  yLabel: string;
  yDomain?: [number, number];
  series: { name: string; values: number[] }[];
}
