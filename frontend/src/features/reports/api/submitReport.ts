import type { ReportReason } from '../reasons';
import { reportRequest, type ReportStatus } from './request';

export interface ReportInput {
  content: string;
  reason: ReportReason;
  details: string;
  email: string;
}

export function submitReport(input: ReportInput): Promise<ReportStatus> {
  return reportRequest<ReportStatus>('/api/reports', input);
}
