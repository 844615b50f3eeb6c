import { Route, Routes } from 'react-router-dom';
import { Layout } from './Layout';
import { lazyRoute } from './lazyRoute';
import { HomePage } from '../features/home/components/HomePage';

const VodGalleryPage = lazyRoute(() => import('../features/vod/components/VodGalleryPage'), 'VodGalleryPage');
const VodDetailPage = lazyRoute(() => import('../features/vod/components/VodDetailPage'), 'VodDetailPage');
const PhotoGalleryPage = lazyRoute(() => import('../features/photos/components/PhotoGalleryPage'), 'PhotoGalleryPage');
const PhotoSetPage = lazyRoute(() => import('../features/photos/components/PhotoSetPage'), 'PhotoSetPage');
const VideoGalleryPage = lazyRoute(() => import('../features/videos/components/VideoGalleryPage'), 'VideoGalleryPage');
const VideoDetailPage = lazyRoute(() => import('../features/videos/components/VideoDetailPage'), 'VideoDetailPage');
const ModelsPage = lazyRoute(() => import('../features/models/components/ModelsPage'), 'ModelsPage');
const ModelDetailPage = lazyRoute(() => import('../features/models/components/ModelDetailPage'), 'ModelDetailPage');
const FreePhotosPage = lazyRoute(() => import('../features/freephotos/components/FreePhotosPage'), 'FreePhotosPage');
const MemberMediaPage = lazyRoute(() => import('../features/members/components/MemberMediaPage'), 'MemberMediaPage');
const SearchPage = lazyRoute(() => import('../features/search/components/SearchPage'), 'SearchPage');
const CompliancePage = lazyRoute(() => import('../features/info/components/CompliancePage'), 'CompliancePage');
const PrivateSalesPage = lazyRoute(() => import('../features/info/components/PrivateSalesPage'), 'PrivateSalesPage');
const JoinPage = lazyRoute(() => import('../features/info/components/JoinPage'), 'JoinPage');
const ContactPage = lazyRoute(() => import('../features/info/components/ContactPage'), 'ContactPage');
const LinksPage = lazyRoute(() => import('../features/info/components/LinksPage'), 'LinksPage');
const ComingSoonPage = lazyRoute(() => import('../features/info/components/ComingSoonPage'), 'ComingSoonPage');
const TestRoutePage = lazyRoute(() => import('../features/info/components/TestRoutePage'), 'TestRoutePage');
const NotFoundPage = lazyRoute(() => import('../features/info/components/NotFoundPage'), 'NotFoundPage');
const AffiliatesPage = lazyRoute(() => import('../features/affiliates/components/AffiliatesPage'), 'AffiliatesPage');
const ReportForm = lazyRoute(() => import('../features/reports/components/ReportForm'), 'ReportForm');
const AppealPage = lazyRoute(() => import('../features/reports/components/AppealPage'), 'AppealPage');
const PaymentPage = lazyRoute(() => import('../features/payment/components/PaymentPage'), 'PaymentPage');
const AccountPage = lazyRoute(() => import('../features/account/components/AccountPage'), 'AccountPage');
const WelcomePage = lazyRoute(() => import('../features/account/components/WelcomePage'), 'WelcomePage');
const LoginPage = lazyRoute(() => import('../features/auth/components/LoginPage'), 'LoginPage');
const ForgotPasswordPage = lazyRoute(() => import('../features/auth/components/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyRoute(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage');
const MyListPage = lazyRoute(() => import('../features/saved/MyListPage'), 'MyListPage');
const ConfirmEmailPage = lazyRoute(() => import('../features/account/components/ConfirmEmailPage'), 'ConfirmEmailPage');
const UnsubscribePage = lazyRoute(() => import('../features/account/components/UnsubscribePage'), 'UnsubscribePage');

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        <Route path="vod" element={<VodGalleryPage />} />
        <Route path="vod/:folder" element={<VodDetailPage />} />
        <Route path="photos" element={<PhotoGalleryPage />} />
        <Route path="photos/:folder" element={<PhotoSetPage />} />
        <Route path="videos" element={<VideoGalleryPage />} />
        <Route path="video/:folder" element={<VideoDetailPage />} />
        <Route path="models" element={<ModelsPage />} />
        <Route path="models/:name" element={<ModelDetailPage />} />
        <Route path="modelname/:name" element={<ModelDetailPage />} />
        <Route path="freephotos/:folder" element={<FreePhotosPage />} />
        <Route path="members/photos/:folder/:file" element={<MemberMediaPage />} />
        <Route path="members/freephotos/:folder/:file" element={<MemberMediaPage />} />
        <Route path="members/video/:folder/:file" element={<MemberMediaPage />} />
        <Route path="search/:term" element={<SearchPage />} />
        <Route path="search" element={<SearchPage />} />
        <Route path="2257" element={<CompliancePage />} />
        <Route path="privatesales" element={<PrivateSalesPage />} />
        <Route path="join" element={<JoinPage />} />
        <Route path="contact" element={<ContactPage />}>
          <Route index element={<ReportForm />} />
        </Route>
        <Route path="reports/:reference/appeal" element={<AppealPage />} />
        <Route path="links" element={<LinksPage />} />
        <Route path="forum" element={<ComingSoonPage />} />
        <Route path="free" element={<ComingSoonPage />} />
        <Route path="affiliates" element={<AffiliatesPage />} />
        <Route path="ccbill" element={<PaymentPage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="account" element={<AccountPage />} />
        <Route path="my-list" element={<MyListPage />} />
        <Route path="confirm-email" element={<ConfirmEmailPage />} />
        <Route path="unsubscribe" element={<UnsubscribePage />} />
        <Route path="welcome" element={<WelcomePage />} />
        <Route path="test" element={<TestRoutePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
