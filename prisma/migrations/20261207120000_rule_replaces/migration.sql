-- A candidate rule may name the live rule it proposes new values for ("try in shadow").
ALTER TABLE "Rule" ADD COLUMN "replaces" TEXT;
