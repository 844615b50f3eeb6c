import { reportRequest, type ReportStatus } from './request';

export function getReport(reference: string): Promise<ReportStatus> {
  return reportRequest<ReportStatus>(`/api/reports/${encodeURIComponent(reference)}`);
}
