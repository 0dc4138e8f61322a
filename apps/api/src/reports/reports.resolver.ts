import { Args, Field, ID, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { ReportsService } from './reports.service';

@ObjectType('ReportLink', {
  description: 'A short-lived link to a run report that a browser can open without an API key.',
})
export class ReportLinkView {
  @Field(() => String) url!: string;
  @Field(() => Date) expiresAt!: Date;
}

@Resolver()
export class ReportsResolver {
  constructor(private readonly reports: ReportsService) {}

  @Query(() => ReportLinkView, {
    description: 'Signed link to the HTML report of a finished simulate run (GET /v1/reports/{runId})',
  })
  @RequireScope('read')
  reportUrl(
    @CurrentTenant() auth: TenantAuth,
    @Args('runId', { type: () => ID }) runId: string,
  ): Promise<ReportLinkView> {
    return this.reports.signedLink(auth.tenantId, runId);
  }
}
