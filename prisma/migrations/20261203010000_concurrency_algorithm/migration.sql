-- AlterEnum
ALTER TYPE "Algorithm" ADD VALUE 'concurrency';
