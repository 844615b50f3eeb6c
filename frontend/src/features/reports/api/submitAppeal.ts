import { reportRequest, type ReportStatus } from './request';

export function submitAppeal(reference: string, input: { text: string; email: string }): Promise<ReportStatus> {
  return reportRequest<ReportStatus>(`/api/reports/${encodeURIComponent(reference)}/appeal`, input);
}
