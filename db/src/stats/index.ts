// What sells, by day: counters the bff adds to as members play, download, save and buy, and the
// console's questions over a window (per item, per model, per day).
export {
  amountCents,
  countStat,
  statDay,
  statDayText,
  statsByItem,
  statsByModel,
  statsItemId,
  statsModelId,
  statsPerDay,
  statTotals,
  STAT_ITEM_TABLE,
  type ItemStats,
  type ModelStats,
  type StatContentType,
  type StatCounter,
  type StatItemType,
  type StatsFilter,
  type StatSort,
  type StatSums,
} from './daily';
